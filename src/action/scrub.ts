// Token values never leave the runner: comments, summaries, outputs, the console and the evidence
// artifact are scrubbed of every secret the action holds, in every form the engine's one scrubber
// knows (engine/os/secrets.ts); each form is also masked by the runner in the job log.
import * as core from '@actions/core';
import { createScrubber, secretForms, secretValues, type Scrubber as Engine } from '../engine/os/secrets.js';

export class Scrubber {
  private readonly values = new Set<string>();
  private engine: Engine = createScrubber([]);

  /** Registers a secret: masked in the log (core.setSecret, every form) and scrubbed from everything we write. */
  add(secret: string | undefined): void {
    if (!secret || this.values.has(secret)) return;
    const forms = secretForms(secret);
    if (forms.length === 0) return;
    this.values.add(secret);
    for (const f of forms) core.setSecret(f);
    this.engine = createScrubber(this.values);
  }

  /** Registers every secret value of an environment (the loop's tokens, the agent keys, names that look secret). */
  addEnv(env: Record<string, string | undefined>): void {
    for (const v of secretValues(env)) this.add(v);
  }

  /** The registered values (not their encoded forms). */
  get secrets(): string[] {
    return [...this.engine.values];
  }

  scrub(text: string): string {
    return this.engine.scrub(text);
  }

  contains(text: string | Buffer): boolean {
    return this.engine.contains(text);
  }
}
