// Entry point of the action's post step (bundled to dist/post/index.js).
import { run } from './post-run.js';

void run();
