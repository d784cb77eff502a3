import { createInterface } from 'node:readline';
import { runCommand } from '../src/run-command';

// A stand-in for a session process, for the tests of what its death leaves behind: runs one command through the
// shell command runner (argv: command, working directory, kill grace in ms), relays its output to stdout, and on a
// line on stdin dies the way the line names (`throw`: an uncaught exception; `exit`: process.exit mid-command).

const [command = '', cwd = process.cwd(), graceMs = '1000'] = process.argv.slice(2);

void runCommand({
  command,
  cwd,
  timeoutMs: 600_000,
  killGraceMs: Number(graceMs),
  onOutput: (chunk) => process.stdout.write(chunk),
}).then(() => process.stdout.write('\n[settled]\n'));

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'throw') {
    setImmediate(() => {
      throw new Error('the session crashed');
    });
  }
  if (line === 'exit') process.exit(3);
});
