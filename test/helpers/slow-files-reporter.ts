/**
 * A vitest reporter beside the default one: the wall time of each test file
 * (collection, hooks and tests), written as the file ends to the file named by
 * TEST_DURATIONS_FILE when it is set (one `ms<TAB>import ms<TAB>state<TAB>project<TAB>path`
 * line each, so a run cut short still tells which files were slow), and the
 * slowest files listed at the end of a run of several: where CI's minutes go.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const LISTED = 15;

export default class SlowFilesReporter implements Reporter {
  readonly #files: { ms: number; name: string }[] = [];
  readonly #out = process.env.TEST_DURATIONS_FILE;

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    const ms = Math.round(diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration);
    const name = path.relative(process.cwd(), module.moduleId);
    this.#files.push({ ms, name });
    if (this.#out !== undefined && this.#out !== '') fs.appendFileSync(this.#out, `${ms}\t${Math.round(diagnostic.collectDuration)}\t${module.state()}\t${module.project.name}\t${name}\n`);
  }

  onTestRunEnd(): void {
    const slowest = [...this.#files].sort((a, b) => b.ms - a.ms).slice(0, LISTED);
    if (slowest.length < 2) return;
    const lines = slowest.map(({ ms, name }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
    process.stdout.write(`\nSlowest test files (wall time in their worker):\n${lines.join('\n')}\n`);
  }
}
