// The seccomp filter that closes the kernel's keyrings to every sandboxed command (sandbox-init.pl
// installs it): a key outlives the command and the namespace that made it.

interface KeySyscalls {
  /** AUDIT_ARCH_* and the first of add_key, request_key, keyctl (consecutive), natively and for 32-bit programs. */
  arch: number;
  first: number;
  compatArch: number;
  compatFirst: number;
  keyctl: number;
  prctl: number;
  mount: number;
  /** The user switch's (sandbox-init.pl's `become`). */
  setgroups: number;
  setresgid: number;
  setresuid: number;
  capset: number;
}

/** The little-endian architectures Node runs on (the filter is packed little-endian). */
export const KEY_SYSCALLS: Partial<Record<string, KeySyscalls>> = {
  x64: {
    arch: 0xc000003e,
    first: 248,
    compatArch: 0x40000003,
    compatFirst: 286,
    keyctl: 250,
    prctl: 157,
    mount: 165,
    setgroups: 116,
    setresgid: 119,
    setresuid: 117,
    capset: 126,
  },
  arm64: {
    arch: 0xc00000b7,
    first: 217,
    compatArch: 0x40000028,
    compatFirst: 309,
    keyctl: 219,
    prctl: 167,
    mount: 40,
    setgroups: 159,
    setresgid: 149,
    setresuid: 147,
    capset: 91,
  },
};

/** sandbox-init.pl's syscall numbers, in its order. */
export const initNumbers = (k: KeySyscalls): string[] => [k.mount, k.keyctl, k.prctl, k.setgroups, k.setresgid, k.setresuid, k.capset].map(String);

/**
 * The classic-BPF seccomp program: for the native and the 32-bit ABI, the three key syscalls return
 * ENOSYS, everything else is allowed. x32's numbers carry bit 30, masked off to match x86_64's.
 */
export function filterHex(k: KeySyscalls): string {
  const LD_ABS = 0x20,
    AND = 0x54,
    JEQ = 0x15,
    JGE = 0x35,
    JGT = 0x25,
    RET = 0x06;
  const ENOSYS = 0x00050000 | 38,
    ALLOW = 0x7fff0000;
  const program: [number, number, number, number][] = [
    [LD_ABS, 0, 0, 4], // arch
    [JEQ, 0, 4, k.arch], // native: on; else to 6
    [LD_ABS, 0, 0, 0], // nr
    [AND, 0, 0, 0xbfffffff],
    [JGE, 0, 6, k.first], // below: allow
    [JGT, 5, 4, k.first + 2], // above: allow; else refuse
    [JEQ, 0, 4, k.compatArch], // 32-bit: on; else allow
    [LD_ABS, 0, 0, 0],
    [JGE, 0, 2, k.compatFirst],
    [JGT, 1, 0, k.compatFirst + 2],
    [RET, 0, 0, ENOSYS],
    [RET, 0, 0, ALLOW],
  ];
  const b = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, v], i) => {
    b.writeUInt16LE(code, i * 8);
    b.writeUInt8(jt, i * 8 + 2);
    b.writeUInt8(jf, i * 8 + 3);
    b.writeUInt32LE(v >>> 0, i * 8 + 4);
  });
  return b.toString('hex');
}
