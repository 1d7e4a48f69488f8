/**
 * The commit and branch a run tested, for its history: from the CI's environment (GitHub Actions, GitLab CI,
 * CircleCI, Jenkins, Buildkite), else from `git` in the project's folder. Started when the run begins and read when it
 * ends, so git's few milliseconds are not the end's; a missing or slow git leaves them out.
 */
import { execFile } from 'node:child_process';

export interface RunSource {
  commit?: string;
  branch?: string;
  /** Where they came from: `github`, `gitlab`, `circleci`, `jenkins`, `buildkite` or `git`. */
  ci?: string;
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined): string | undefined => (value && value.trim() ? value.trim() : undefined);

/** What the CI's variables say; undefined outside a known CI. Pure. */
export function ciSource(env: Env): RunSource | undefined {
  const make = (ci: string, commit: string | undefined, branch: string | undefined): RunSource => ({ ci, ...(set(commit) ? { commit: set(commit)! } : {}), ...(set(branch) ? { branch: set(branch)! } : {}) });
  // A pull request's run names its head branch in GITHUB_HEAD_REF; GITHUB_REF_NAME is then `<n>/merge`.
  if (env['GITHUB_ACTIONS'] === 'true' || set(env['GITHUB_SHA'])) return make('github', env['GITHUB_SHA'], set(env['GITHUB_HEAD_REF']) ?? env['GITHUB_REF_NAME']);
  if (env['GITLAB_CI'] || set(env['CI_COMMIT_SHA'])) return make('gitlab', env['CI_COMMIT_SHA'], set(env['CI_COMMIT_REF_NAME']) ?? env['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME']);
  if (env['CIRCLECI'] || set(env['CIRCLE_SHA1'])) return make('circleci', env['CIRCLE_SHA1'], env['CIRCLE_BRANCH']);
  if (env['BUILDKITE'] || set(env['BUILDKITE_COMMIT'])) return make('buildkite', env['BUILDKITE_COMMIT'], env['BUILDKITE_BRANCH']);
  // Jenkins' git plugin names the remote: `origin/main`.
  if (env['JENKINS_URL'] || set(env['GIT_COMMIT'])) return make('jenkins', env['GIT_COMMIT'], set(env['GIT_BRANCH'])?.replace(/^origin\//, ''));
  return undefined;
}

/** `git rev-parse HEAD --abbrev-ref HEAD` in `cwd`, at most `timeoutMs`; resolves to {} on any failure. */
export function gitSource(cwd: string, timeoutMs = 2000): Promise<RunSource> {
  return new Promise((resolve) => {
    try {
      const child = execFile('git', ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], { cwd, timeout: timeoutMs, windowsHide: true }, (error, stdout) => {
        if (error) return resolve({});
        const [commit, branch] = String(stdout).trim().split('\n');
        const source: RunSource = { ci: 'git' };
        if (commit && /^[0-9a-f]{7,64}$/.test(commit.trim())) source.commit = commit.trim();
        // A detached HEAD names no branch.
        if (branch && branch.trim() !== 'HEAD') source.branch = branch.trim();
        resolve(source.commit ? source : {});
      });
      child.on('error', () => resolve({}));
    } catch {
      resolve({});
    }
  });
}

/** The CI's answer at once, else git's; never rejects. */
export function runSource(env: Env, cwd: string): Promise<RunSource> {
  const ci = ciSource(env);
  return ci ? Promise.resolve(ci) : gitSource(cwd);
}
