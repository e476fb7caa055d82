// The programs a proposed criterion and setup run: init looks each up on PATH (never runs it) and
// names the missing ones with how to install them, so a new user meets the gap at init, not as exit
// 127 at the baseline. A program the setup itself installs (pytest from the test requirements) is
// not asked for.
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

const INSTALL = {
  python3: 'apt-get install python3, or https://www.python.org/downloads/',
  pytest: 'python3 -m pip install pytest (Debian/Ubuntu: apt-get install python3-pytest), or name pytest in the test requirements checks.setup installs',
  go: 'apt-get install golang-go, or https://go.dev/dl/',
  cargo: 'https://rustup.rs, or apt-get install cargo',
  java: 'apt-get install default-jdk-headless, or https://adoptium.net',
  mvn: 'apt-get install maven, or commit the Maven wrapper (`mvn wrapper:wrapper` writes ./mvnw)',
  gradle: 'apt-get install gradle, or commit the Gradle wrapper (`gradle wrapper` writes ./gradlew)',
  make: 'apt-get install make',
  npm: 'install Node.js (https://nodejs.org), which brings npm',
  pnpm: '`corepack enable` (Node.js ships corepack), or npm install -g pnpm',
  yarn: '`corepack enable` (Node.js ships corepack), or npm install -g yarn',
} as const;

export type Program = keyof typeof INSTALL;

/** True when `name` is an executable on PATH (looked up, never run). */
export async function onPath(name: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  for (const d of (env.PATH ?? '').split(delimiter).filter(Boolean))
    if (
      await access(join(d, name), constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  return false;
}

/** One line per program of `needs` missing from PATH: what it is for and how to install it. */
export async function missingPrograms(needs: readonly Program[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const lines: string[] = [];
  for (const name of needs)
    if (!(await onPath(name, env))) lines.push(`${name} is not installed here (the checks run it): ${INSTALL[name]}; then \`phuc-loop run\``);
  return lines;
}
