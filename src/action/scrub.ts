// Token values never leave the runner: comments, summaries, outputs and the evidence artifact are
// scrubbed of every secret the action holds, in the forms a tool might print them (plain, and the
// base64 of the basic-auth header git sends).
import * as core from '@actions/core';

export class Scrubber {
  private readonly values = new Set<string>();

  /** Registers a secret: masked in the log (core.setSecret) and scrubbed from everything we write. */
  add(secret: string | undefined): void {
    if (!secret || secret.length < 6) return;
    const forms = [secret, Buffer.from(`x-access-token:${secret}`).toString('base64'), Buffer.from(secret).toString('base64')];
    for (const f of forms) {
      if (this.values.has(f)) continue;
      this.values.add(f);
      core.setSecret(f);
    }
  }

  get secrets(): string[] {
    return [...this.values];
  }

  scrub(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(v).join('***');
    return out;
  }

  contains(text: string | Buffer): boolean {
    const s = typeof text === 'string' ? text : text.toString('latin1');
    for (const v of this.values) if (s.includes(v)) return true;
    return false;
  }
}
