// The helper programs that are files of their own (os/programs.ts): each is there, compiles clean
// (perl -c -w, sh -n), and the small ones behave as their headers say. The spawn helper is tested
// through the spawner (test/unit/spawner.test.ts), sandbox-init.pl through the sandbox
// (test/hostile/sandbox.test.ts), the forwarder through test/hostile/network.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { installPrograms, programFile, programText, PROGRAMS } from '../../src/engine/os/programs.js';
import { initNumbers, KEY_SYSCALLS } from '../../src/engine/os/sandbox-keys.js';
import { systemTool } from '../../src/engine/os/spawner.js';

const exec = promisify(execFile);
const perl = systemTool('perl');
const bwrap = systemTool('bwrap');
/** sandbox-init.pl's syscall numbers on x86_64 (mount keyctl prctl setgroups setresgid setresuid capset). */
const X64 = initNumbers(KEY_SYSCALLS.x64!);

test('every helper program beside the engine is listed (the build copies them all into dist/), and each is found', () => {
  const files = readdirSync(join(dirname(fileURLToPath(import.meta.url)), '../../src/engine/os')).filter((f) => /\.(mjs|pl|sh|py)$/.test(f));
  expect(files.sort()).toEqual([...PROGRAMS].sort());
  for (const name of PROGRAMS) expect(existsSync(programFile(name))).toBe(true);
});

test.each(PROGRAMS.filter((p) => p.endsWith('.pl')))('%s compiles with no warning (perl -c -w)', async (name) => {
  if (!perl) return;
  const r = await exec(perl, ['-c', '-w', programFile(name)]);
  expect(r.stderr.trim()).toBe(`${programFile(name)} syntax OK`);
});

test.each(PROGRAMS.filter((p) => p.endsWith('.sh')))('%s parses as a POSIX shell program (sh -n)', async (name) => {
  const r = await exec('/bin/sh', ['-n', programFile(name)]);
  expect(r.stderr).toBe('');
});

// The unittest seal (judge/seal.ts): as `sitecustomize` first on PYTHONPATH it keeps TestCase's
// attributes under the name the environment gives, takes that name out of the environment, and runs
// the sitecustomize it stands in front of.
test('seal-unittest.py keeps TestCase as it was at the start, under a name it removes from the environment, and runs the next sitecustomize', async () => {
  const root = await mkdtemp(join(tmpdir(), 'phuc-seal-py-'));
  try {
    await mkdir(join(root, 'seal'));
    await mkdir(join(root, 'next'));
    await writeFile(join(root, 'seal', 'sitecustomize.py'), programText('seal-unittest.py'));
    await writeFile(join(root, 'next', 'sitecustomize.py'), 'import builtins\nbuiltins.chained = True\n');
    const probe = [
      'import builtins, os, sys, unittest',
      'orig = unittest.TestCase.assertEqual',
      'unittest.TestCase.assertEqual = lambda *a: None',
      'kept = sys.modules["k1"].classes[unittest.TestCase]',
      'print(kept["assertEqual"] is orig, "PHUC_SEAL_UNITTEST" in os.environ, getattr(builtins, "chained", False))',
    ].join('\n');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONPATH: `${join(root, 'seal')}:${join(root, 'next')}`, PHUC_SEAL_UNITTEST: 'k1' };
    const r = await exec('python3', ['-c', probe], { env });
    expect(r.stdout.trim()).toBe('True False True');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('installPrograms writes the texts read once into a folder of its own, and refuses to write over a file', async () => {
  const dir = join(await mkdtemp(join(tmpdir(), 'phuc-programs-')), 'bin');
  try {
    const paths = await installPrograms(dir, ['sandbox-load.sh']);
    expect(await readFile(paths['sandbox-load.sh'], 'utf8')).toBe(programText('sandbox-load.sh'));
    expect((await stat(dir)).mode & 0o777).toBe(0o755);
    expect((await stat(paths['sandbox-load.sh'])).mode & 0o777).toBe(0o644);
    // A second install into the same folder finds the file there: refused, never written through.
    await expect(installPrograms(dir, ['sandbox-load.sh'])).rejects.toThrow(/EEXIST/);
  } finally {
    await rm(join(dir, '..'), { recursive: true, force: true });
  }
});

test('sandbox-load.sh: sources the environment file and deletes it, hands HOME and TMPDIR over, removes the ended folders, then runs the command with the tools it was given', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-load-'));
  try {
    const [home, tmp, ended] = ['home', 'tmp', 'ended'].map((n) => join(dir, n));
    await Promise.all([home, tmp, join(ended, 'x')].map((d) => mkdir(d, { recursive: true })));
    const envFile = join(dir, 'env');
    // A variable named like the tools the script keeps: the script must not take it for one.
    await writeFile(envFile, `export GREETING='hello '\\''world'\\'''\nexport rm='/bin/false'\nexport chown='/bin/false'\n`, { mode: 0o600 });
    const ids = `${String(process.getuid?.())}:${String(process.getgid?.())}`;
    const r = await exec('/bin/sh', [
      programFile('sandbox-load.sh'),
      systemTool('rm')!,
      systemTool('chown')!,
      envFile,
      ids,
      home,
      tmp,
      '1',
      ended,
      '/bin/sh',
      '-c',
      'echo "$GREETING"',
    ]);
    expect(r.stdout).toBe("hello 'world'\n");
    expect(existsSync(envFile)).toBe(false);
    expect(existsSync(ended)).toBe(false);
    expect(existsSync(home) && existsSync(tmp)).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('sandbox-init.pl in a namespace of bubblewrap: the command runs in its folder with no_new_privs and the keyring filter; arguments that do not end with -- are refused', async () => {
  if (!perl || !bwrap || process.arch !== 'x64') return;
  const dir = await mkdtemp(join(tmpdir(), 'phuc-init-'));
  try {
    // An empty filter program would be refused by the kernel: one instruction, RET ALLOW.
    const allow = Buffer.from([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f]).toString('hex');
    const ns = ['--unshare-user', '--uid', '0', '--gid', '0', '--cap-add', 'ALL', '--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc', '--'];
    const init = [perl, programFile('sandbox-init.pl'), allow, ...X64, '-', '-', dir, '0', '0', ',userxattr', '', '0', '0', '0', '0'];
    const r = await exec(bwrap, [...ns, ...init, '--', '/bin/sh', '-c', 'pwd; grep -E "^(Uid|CapInh|CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status']);
    // "-": the namespace's root stays, without any capability.
    const none = '0000000000000000';
    expect(r.stdout).toBe(`${dir}\nUid:\t0\t0\t0\t0\nCapInh:\t${none}\nCapEff:\t${none}\nCapBnd:\t${none}\nNoNewPrivs:\t1\nSeccomp:\t2\n`);
    await expect(exec(bwrap, [...ns, ...init, '/bin/true'])).rejects.toMatchObject({ stderr: expect.stringContaining('do not end with --') });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("sandbox-init.pl runs a perl program given as its command in its own interpreter (the agent's forwarder: one start of perl fewer), with its arguments and exit code; one that runs off its end is an error", async () => {
  if (!perl || !bwrap || process.arch !== 'x64') return;
  const dir = await mkdtemp(join(tmpdir(), 'phuc-init-'));
  try {
    const allow = Buffer.from([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f]).toString('hex');
    const ns = ['--unshare-user', '--uid', '0', '--gid', '0', '--cap-add', 'ALL', '--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc', '--'];
    const init = [perl, programFile('sandbox-init.pl'), allow, ...X64, '-', '-', dir, '0', '0', ',userxattr', '', '0', '0', '0', '0', '--'];
    // sandbox-init.pl's own sub `mnt` is defined only in its interpreter, not in a perl started anew.
    const program = join(dir, 'program.pl');
    await writeFile(program, 'print defined(&main::mnt) ? "same" : "new", " @ARGV\\n"; exit 3;\n');
    await expect(exec(bwrap, [...ns, ...init, perl, program, 'a', 'b'])).rejects.toMatchObject({ code: 3, stdout: 'same a b\n' });
    await writeFile(program, '1;\n');
    await expect(exec(bwrap, [...ns, ...init, perl, program])).rejects.toMatchObject({ stderr: expect.stringContaining('ended without exit') });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("sandbox-init.pl's user switch (as root): the command runs as UID:GID (real, effective, saved) with no other group, no capability in any set and no_new_privs; a program run in its interpreter (the forwarder) stays root and switches the child it execs with `become`", async () => {
  if (!perl || !bwrap || process.arch !== 'x64' || process.getuid?.() !== 0) return;
  const dir = await mkdtemp(join(tmpdir(), 'phuc-init-'));
  try {
    const allow = Buffer.from([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f]).toString('hex');
    const ns = ['--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc', '--'];
    const init = [perl, programFile('sandbox-init.pl'), allow, ...X64, '65534', '65533', dir, '0', '0', '', '', '0', '0', '0', '0', '--'];
    const status = 'grep -E "^(Uid|Gid|Groups|Cap[A-Za-z]+|NoNewPrivs):" /proc/self/status';
    const none = '0000000000000000';
    const role = `Uid:\t65534\t65534\t65534\t65534\nGid:\t65533\t65533\t65533\t65533\nGroups:\t\n${['Inh', 'Prm', 'Eff', 'Bnd', 'Amb'].map((c) => `Cap${c}:\t${none}\n`).join('')}NoNewPrivs:\t1\n`;
    const r = await exec(bwrap, [...ns, ...init, '/bin/sh', '-c', status]);
    expect(r.stdout.replace(/[ \t]+\n/g, '\n').replace(/Groups:\n/, 'Groups:\t\n')).toBe(role);
    const program = join(dir, 'program.pl');
    await writeFile(
      program,
      `print "parent $<\\n"; my $pid = fork // die; if (!$pid) { main::become(); exec '/bin/sh', '-c', '${status}' } waitpid($pid, 0); exit 0;\n`,
    );
    const f = await exec(bwrap, [...ns, ...init, perl, program]);
    expect(f.stdout.replace(/[ \t]+\n/g, '\n').replace(/Groups:\n/, 'Groups:\t\n')).toBe(`parent 0\n${role}`);
    // Root, or what is not a number, is refused: never read as uid 0.
    for (const ids of [
      ['0', '0'],
      ['x', '1'],
      ['-', '7'],
    ])
      await expect(exec(bwrap, [...ns, ...init.slice(0, 10), ...ids, ...init.slice(12), '/bin/true'])).rejects.toMatchObject({
        stderr: expect.stringContaining('not a user and group') as string,
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('break-links.sh: each file named becomes a copy of its own (content and mode kept); its other link keeps the old file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-links-'));
  try {
    const [inside, outside] = [join(dir, 'tree', 'a file'), join(dir, 'elsewhere')];
    await mkdir(join(dir, 'tree'));
    await writeFile(outside, 'shared\n', { mode: 0o640 });
    await link(outside, inside);
    const tools = (['mktemp', 'cp', 'mv', 'rm'] as const).map((n) => systemTool(n)!);
    await exec('/bin/sh', [programFile('break-links.sh'), ...tools, inside]);
    const [a, b] = [await stat(inside), await stat(outside)];
    expect([a.nlink, b.nlink, a.ino === b.ino, a.mode & 0o777]).toEqual([1, 1, false, 0o640]);
    expect(await readFile(inside, 'utf8')).toBe('shared\n');
    await writeFile(inside, 'changed\n');
    expect(await readFile(outside, 'utf8')).toBe('shared\n');
    expect(readdirSync(join(dir, 'tree'))).toEqual(['a file']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
