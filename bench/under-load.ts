// Runs a command with CPU-bound busy loops beside it, to prove that the test suite holds on a busy
// machine (tests wait on state, never on time). Usage:
//   tsx bench/under-load.ts [--loops N] -- <command> [args...]      (default: 2 loops)
// `npm run test:under-load` runs `npm test` this way. Prints the wall time and the load average,
// and exits with the command's exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';

function parseArgs(argv: readonly string[]): { loops: number; command: string[] } {
  const split = argv.indexOf('--');
  const options = split === -1 ? [] : argv.slice(0, split);
  const command = split === -1 ? [...argv] : argv.slice(split + 1);
  let loops = 2;
  const at = options.indexOf('--loops');
  if (at !== -1) loops = Number(options[at + 1]);
  if (!Number.isInteger(loops) || loops < 0 || loops > 64) {
    throw new Error(`--loops must be an integer from 0 to 64, got ${options[at + 1]}`);
  }
  if (command.length === 0) throw new Error('usage: under-load.ts [--loops N] -- <command...>');
  return { loops, command };
}

const { loops, command } = parseArgs(process.argv.slice(2));
// Each loop is its own process, so each keeps one core busy whatever the command does.
const busy: ChildProcess[] = Array.from({ length: loops }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopLoops = () => {
  for (const loop of busy) loop.kill('SIGKILL');
};
process.on('exit', stopLoops);

const started = performance.now();
console.log(`under-load: ${loops} busy loops beside: ${command.join(' ')}`);
const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  stopLoops();
  const minutes = (performance.now() - started) / 60_000;
  const [one, five] = loadavg();
  console.log(
    `under-load: ${command.join(' ')} ${code === 0 ? 'passed' : `failed (${signal ?? code})`} ` +
      `in ${minutes.toFixed(1)} min with ${loops} busy loops; load average ${one!.toFixed(1)} (1 min), ${five!.toFixed(1)} (5 min)`,
  );
  process.exitCode = code ?? 1;
});
