/**
 * `leadlight --help` lists the commands without loading them (issue 14):
 * its listing must be exactly what commander prints with every command
 * loaded, so a command whose description or options change cannot drift from
 * the summary program.ts keeps. `leadlight help NAME` and `NAME --help` still
 * show the command's own subcommands and options.
 */
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgram, run, type CliIo } from '../../src/cli/program.js';

function io(): { io: CliIo; stdout: () => string; stderr: () => string } {
  const texts = { stdout: '', stderr: '' };
  const collect = (name: keyof typeof texts) =>
    new Writable({
      write(chunk, _encoding, done) {
        texts[name] += String(chunk);
        done();
      },
    });
  return {
    io: { stdout: collect('stdout'), stderr: collect('stderr'), stdin: Readable.from([]), env: {} },
    stdout: () => texts.stdout,
    stderr: () => texts.stderr,
  };
}

describe('leadlight --help', () => {
  it('lists every command exactly as commander does with every command loaded', async () => {
    const listed = io();
    expect(await run(['--help'], listed.io)).toBe(0);
    const loaded = await createProgram(io().io, [], true);
    expect(listed.stdout()).toBe(loaded.helpInformation());
    expect(listed.stdout()).toContain('  workspace  ');
    expect(listed.stderr()).toBe('');
  });

  it('help NAME and NAME --help show the subcommands of that command', async () => {
    for (const argv of [['help', 'key'], ['key', '--help']]) {
      const shown = io();
      await run(argv, shown.io);
      expect(shown.stdout()).toMatch(/^Usage: leadlight key \[options\] \[command\]/);
      for (const subcommand of ['create', 'list', 'rotate', 'revoke']) expect(shown.stdout()).toContain(`  ${subcommand} `);
    }
  });

  it('an unknown command still fails with one line and a suggestion', async () => {
    const failed = io();
    expect(await run(['wrkspace'], failed.io)).toBe(1);
    expect(failed.stderr()).toBe("leadlight: unknown command 'wrkspace'\n(Did you mean workspace?) (see --help)\n");
  });
});
