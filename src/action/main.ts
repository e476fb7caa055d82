// Entry point of the action's main step (bundled to dist/main/index.js). The first line needs the
// version only: the step's modules, the toolkit and the engine load after it (ncc puts them in
// chunks), so the log shows the step started before ~2 MB is compiled (bench/startup.ts measures it).
import { VERSION } from '../engine/common/version.js';

process.stdout.write(`phuc-loop ${VERSION}\n`);
void import('./run.js').then((m) => m.run());
