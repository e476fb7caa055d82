// unittest's copies of the tests that failed (judge/shadow.ts): a test is a method of a TestCase
// class, named `Class.method`. Code under test can let the failing (first, second) pairs through
// TestCase.assertEqual, or through the test's class (an override set on it, a hook on every class
// made after it), and the copy calls the same method. So the copy is a subclass made for the run,
// under a random name, that runs the original method with unittest's own attributes restored: those
// the run's seal kept at the interpreter's start (judge/seal.ts, os/seal-unittest.py), wherever the
// test's classes do not override them in their own bodies (a function whose qualified name is not
// `Class.attribute` was set on the class from outside it, and is replaced too); its settings (data,
// such as maxDiff) stay the class's. The subclass hides
// the tests it inherits, so only the copy runs under its name.

/** `Class.method` from a failing line's method and its dotted id (3.11: `pkg.mod.Class.method`; before: `pkg.mod.Class`). */
export function unittestName(method: string, id: string): string | null {
  const parts = id.split('.');
  if (parts.at(-1) === method) parts.pop();
  return parts.length ? `${parts[parts.length - 1]}.${method}` : null;
}

/** Whether `text` declares `Class.method`: a top-level class whose indented body defines the method (unittest's and pytest's test classes). */
export function declaresMethod(text: string, name: string): boolean {
  const m = /^(\w+)\.(\w+)$/.exec(name);
  if (!m) return false;
  const body = new RegExp(`^class ${m[1]}\\b[^\\n]*:[^\\n]*\\n((?:[ \\t]+\\S[^\\n]*\\n|[ \\t]*\\n)*)`, 'm').exec(text)?.[1];
  return body !== undefined && new RegExp(`^[ \\t]+(?:async[ \\t]+)?def ${m[2]}\\s*\\(`, 'm').test(body);
}

/**
 * The Python helper that makes a copy's class: `helper(Class, "method", token, start, end)` returns
 * a subclass `X<token>` whose one test `test_<token>` notes `start` in `log`, runs the method and
 * notes `end` (all three given as Python literals).
 */
export function unittestHelper(helper: string, log: string, key: string): string {
  return `

def ${helper}(base, name, token, start, end):
    import inspect
    import sys

    def note(line):
        with open(${log}, "a") as h:
            h.write(line)

    f = vars(base)[name]
    if inspect.iscoroutinefunction(f):

        async def run(self):
            note(start)
            await f(self)
            note(end)

    else:

        def run(self):
            note(start)
            f(self)
            note(end)

    kept = getattr(sys.modules.get(${key}), "classes", {})
    mro = base.__mro__

    def code(v):
        return callable(v) or hasattr(v, "__func__")

    def declared(owner, k):
        v = vars(owner)[k]
        return not code(v) or getattr(v, "__qualname__", None) == owner.__qualname__ + "." + k

    ns = {m: None for m in dir(base) if m.startswith("test")}
    for c in reversed(mro):
        own = kept.get(c)
        if own is None:
            continue
        after = mro[mro.index(c) + 1 :]
        for k in set(own) | set(vars(c)):
            if k in own and not code(own[k]):
                continue
            owner = next((d for d in mro if k in vars(d)), c)
            if owner is c or owner in kept or not declared(owner, k):
                ns[k] = own[k] if k in own else next((vars(d)[k] for d in after if k in vars(d)), None)
    ns["test_" + token] = run
    made = type(base)("X" + token, (base,), dict(ns))
    # Set again: a hook the class's making ran (__init_subclass__) may have changed them.
    for k, v in ns.items():
        setattr(made, k, v)
    return made
`;
}
