import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs npm in `cwd` as a user would there, and returns what it printed; a failure names the command and its output. */
export async function npm(args: string[], cwd: string): Promise<string> {
  // The env of an enclosing `npm test` would point npm at this repository's package.json.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle)_/i.test(key)));
  try {
    const { stdout, stderr } = await run('npm', args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout + stderr;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}: ${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}
