// Runs npm scripts side by side (`tsx scripts/run-parallel.ts typecheck lint`): each one's output
// is printed whole once it ends, so the logs stay readable; fails if any of them fails. For checks
// that each keep about one core busy (tsc, ESLint), so that `npm test` waits for the longest only.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: tsx scripts/run-parallel.ts <npm script>...');
  process.exit(2);
}

const results = await Promise.all(
  names.map(
    (name) =>
      new Promise<{ name: string; code: number }>((done) => {
        const child = spawn('npm', ['run', name], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const output: Buffer[] = [];
        child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
        child.on('close', (code, signal) => {
          const status = code ?? (signal ? 128 : 1);
          process.stdout.write(
            `> ${name}: ${status === 0 ? 'passed' : `failed (${signal ?? code})`}\n`,
          );
          process.stdout.write(Buffer.concat(output));
          done({ name, code: status });
        });
        child.on('error', (error) => {
          process.stdout.write(`> ${name}: could not start (${error.message})\n`);
          done({ name, code: 1 });
        });
      }),
  ),
);

const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
