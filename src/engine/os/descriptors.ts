// Descriptors the loop was started with besides stdin, stdout and stderr (`phuc-loop run 9<token`,
// a pipe a runner or a shell leaked) pass on to every process the loop starts: the agent and the
// checks would read them whatever their sandbox. Node opens its own with close-on-exec (its IPC
// channel too); one without it was inherited, and is closed before anything is started.
import { closeSync, readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** Closes every inherited descriptor above 2 that lacks close-on-exec; returns their numbers (Linux; elsewhere none). */
export function closeInheritedDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const closed: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    let flags: string | undefined;
    try {
      flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${name}`, 'utf8'))?.[1];
    } catch {
      continue; // the listing's own descriptor, closed since
    }
    if (flags === undefined || (parseInt(flags, 8) & O_CLOEXEC) !== 0) continue;
    closeSync(fd);
    closed.push(fd);
  }
  return closed;
}

/** The log line for what closeInheritedDescriptors closed. */
export function inheritedNote(closed: number[]): string {
  return `closed the file descriptor(s) ${closed.join(', ')} this process inherited: the agent and the checks would have inherited them too`;
}
