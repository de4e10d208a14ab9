import type { ErrorBody } from './common';

/** One failed check of a request: the offending field's dotted path ('' for none) and zod's sentence. */
export interface RequestIssue {
  path: string;
  message: string;
}

export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

const PART_SENTENCES: Record<RequestPart, string> = {
  body: 'Request body is invalid',
  querystring: 'Query string is invalid',
  params: 'Path parameters are invalid',
  headers: 'Request headers are invalid',
};

/** zod says "Invalid input: expected string, received undefined" for a missing field. */
const isMissing = (issue: RequestIssue) => /received undefined$/.test(issue.message);

/**
 * The 400 body for a request its endpoint's schema refused: the part's sentence and the first three
 * issues, and for a body each field's first sentence so forms can show it in place. The server and the
 * console's mocks both answer with it.
 */
export function invalidRequestBody(part: RequestPart | undefined, issues: RequestIssue[]): ErrorBody {
  const where = part ? PART_SENTENCES[part] : 'Request is invalid';
  const detail = issues
    .slice(0, 3)
    .map((issue) => {
      if (issue.path && isMissing(issue)) return `${issue.path} is required`;
      return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    })
    .join('; ');
  const sentence = `${where}: ${detail}`;
  const fields: Record<string, string> = {};
  if (part === 'body') {
    for (const issue of issues) {
      if (issue.path && !(issue.path in fields)) fields[issue.path] = isMissing(issue) ? 'Required' : issue.message;
    }
  }
  return Object.keys(fields).length > 0
    ? { success: false, detail: sentence, error: sentence, fields }
    : { success: false, detail: sentence, error: sentence };
}
