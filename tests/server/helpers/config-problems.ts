import { ConfigError, loadConfig } from '../../../server/config';

/** The problems loadConfig reports for an environment; none when it loads. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
