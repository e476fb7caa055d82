import { IsolationUnavailableError, resolveIsolation, type IsolationFacts } from '../../src/engine/os/sandbox.js';

const ALL: IsolationFacts = { privilege: 'root', userPidns: null, pidns: null };
const NO_PRIVILEGE = 'the loop is not root and has no passwordless sudo (sudo -n: a password is required)';
const NO_USERNS = 'unprivileged user namespaces do not work here: unshare: write failed /proc/self/uid_map: Operation not permitted';

describe('resolveIsolation', () => {
  test('auto takes user+pidns where the loop is root', async () => {
    const iso = await resolveIsolation('auto', ALL);
    expect(iso).toMatchObject({ level: 'user+pidns', privilege: 'root', reason: 'auto chose user+pidns: the loop runs as root' });
    expect(iso.limits.join(' ')).toMatch(/\.git/);
    expect(iso.limits.join(' ')).not.toMatch(/killed/);
    // Each command has its own temp folders there; only at none are they shared (docs/security.md).
    expect(iso.limits.join(' ')).not.toMatch(/are shared/);
  });

  test('auto takes user+pidns through passwordless sudo, and says what that does not cover', async () => {
    const iso = await resolveIsolation('auto', { ...ALL, privilege: 'sudo' });
    expect(iso).toMatchObject({ level: 'user+pidns', privilege: 'sudo', reason: 'auto chose user+pidns: the loop has passwordless sudo' });
    expect(iso.limits.join(' ')).toMatch(/loop process itself is killed/);
  });

  test('auto falls back to pidns, then none, saying why', async () => {
    const pidns = await resolveIsolation('auto', { privilege: null, userPidns: NO_PRIVILEGE, pidns: null });
    expect(pidns).toMatchObject({ level: 'pidns', privilege: null });
    expect(pidns.reason).toBe(`auto chose pidns: user+pidns is not available (${NO_PRIVILEGE})`);
    expect(pidns.limits.join(' ')).toMatch(/loop's own OS user/);
    const none = await resolveIsolation('auto', { privilege: null, userPidns: NO_PRIVILEGE, pidns: NO_USERNS });
    expect(none.level).toBe('none');
    expect(none.reason).toBe(`auto chose none: user+pidns is not available (${NO_PRIVILEGE}); pidns is not available (${NO_USERNS})`);
    expect(none.limits.join(' ')).toMatch(/environment \(its tokens\)/);
    expect(none.limits.join(' ')).toMatch(/\(\/tmp, \/var\/tmp, \/dev\/shm and any other\) are shared/);
    expect(pidns.limits.join(' ')).not.toMatch(/are shared/);
  });

  test('an explicit level that is not available is an error naming agent.isolation, the level, why and what is available', async () => {
    const facts = { privilege: null, userPidns: NO_PRIVILEGE, pidns: null };
    const err = await resolveIsolation('user+pidns', facts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IsolationUnavailableError);
    expect((err as Error).message).toBe(
      `agent.isolation: user+pidns is not available on this machine: ${NO_PRIVILEGE}. Available here: pidns, none (or auto, which picks the strongest).`,
    );
    await expect(resolveIsolation('pidns', { ...facts, pidns: NO_USERNS })).rejects.toThrow(
      `agent.isolation: pidns is not available on this machine: ${NO_USERNS}. Available here: none (or auto, which picks the strongest).`,
    );
  });

  test('an explicit available level is taken as asked, even below the strongest', async () => {
    expect(await resolveIsolation('pidns', ALL)).toMatchObject({ level: 'pidns', privilege: null, reason: 'agent.isolation asks for pidns' });
    expect(await resolveIsolation('none', { privilege: null, userPidns: NO_PRIVILEGE, pidns: NO_USERNS })).toMatchObject({ level: 'none' });
  });

  test('without bubblewrap every level above none fails closed, auto included, naming the package and agent.isolation', async () => {
    const facts = { ...ALL, needs: 'bubblewrap (the bwrap program), which is not installed: install the bubblewrap package (apt-get install bubblewrap)' };
    for (const level of ['auto', 'user+pidns', 'pidns'] as const) {
      const err = await resolveIsolation(level, facts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IsolationUnavailableError);
      expect((err as Error).message).toBe(
        `agent.isolation: ${level} needs bubblewrap (the bwrap program), which is not installed: install the bubblewrap package (apt-get install bubblewrap), or set agent.isolation: none to run the agent and the checks beside the loop.`,
      );
    }
    expect(await resolveIsolation('none', facts)).toMatchObject({ level: 'none' });
  });

  test('the probe of this machine is consistent with the user it runs as', async () => {
    const iso = await resolveIsolation('auto');
    if (process.getuid?.() === 0) expect(iso.level).toBe('user+pidns');
    expect(iso.limits.length).toBeGreaterThan(0);
  });
});
