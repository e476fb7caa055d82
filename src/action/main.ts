// Entry point of the action's main step (bundled to dist/main/index.js). The first line needs the
// version only; then start.ts checks the inputs with the runner's file commands alone, and only a run
// that really starts loads the toolkit and the engine (ncc puts them in chunks): the log shows the
// step started, and a refusal ends, before ~2 MB is compiled (bench/startup.ts measures both).
import { VERSION } from '../engine/common/version.js';

process.stdout.write(`phuc-loop ${VERSION}\n`);
void import('./start.js').then((m) => m.start());
