// A tiny library with three bugs for the phuc-loop demo.
export function add(a, b) {
  return a - b;
}

export function mul(a, b) {
  return a + b;
}

export function div(a, b) {
  if (b === 0) return 0;
  return a / b;
}
