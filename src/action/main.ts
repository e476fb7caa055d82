// Entry point of the action's main step (bundled to dist/main/index.js).
import { run } from './run.js';

void run();
