// The STOP label as backpressure: a StopSource the engine checks before every iteration and polls
// while the agent runs. One poll is one API call; concurrent polls share the call in flight.
import type { StopSource } from '../engine/os/ports.js';
import { apiError, type Octokit } from './github.js';
import type { RepoRef } from './pull-request.js';

export class StopLabel implements StopSource {
  readonly name = 'stop-label';
  private inFlight: Promise<string | null> | null = null;
  private seen: string | null = null;
  polls = 0;

  constructor(private readonly o: { octokit: Octokit; repo: RepoRef; issue: number; label: string; warn: (m: string) => void }) {}

  /** The stop this label asked for in this run, or null. */
  get requested(): string | null {
    return this.seen;
  }

  check(): Promise<string | null> {
    // Once seen, a STOP stays requested for this run (removing the label resumes the next run).
    if (this.seen) return Promise.resolve(this.seen);
    this.inFlight ??= this.poll().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async poll(): Promise<string | null> {
    this.polls++;
    try {
      const { data } = await this.o.octokit.rest.issues.listLabelsOnIssue({ ...this.o.repo, issue_number: this.o.issue, per_page: 100 });
      const want = this.o.label.toLowerCase();
      if (data.some((l) => l.name.toLowerCase() === want)) this.seen = `the ${this.o.label} label is on pull request #${this.o.issue}`;
      return this.seen;
    } catch (e) {
      // An unreachable API is not a stop request; the next poll asks again.
      this.o.warn(`could not read the labels of #${this.o.issue} (${apiError(e)}); STOP is checked again at the next poll`);
      return null;
    }
  }
}
