// The `phuc-loop` CLI's entry (bundled to dist/cli/index.js). `--version` needs the version only:
// every other command loads the commands and the engine (ncc puts them in a chunk), so a version
// check costs little more than starting node (bench/startup.ts measures it).
import { VERSION } from '../engine/common/version.js';

const argv = process.argv.slice(2);
if (argv[0] === '--version' || argv[0] === '-v') process.stdout.write(`phuc-loop ${VERSION}\n`);
else void import('./commands.js').then((m) => m.start(argv));
