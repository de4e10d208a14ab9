import { describe, expect, it } from 'vitest';
import { parseRepositoryUrl } from '../../../contract/github';

describe('parseRepositoryUrl', () => {
  it.each([
    ['https://github.com/acme/recordings', { host: 'github.com', owner: 'acme', repo: 'recordings' }],
    ['https://github.com/acme/recordings.git', { host: 'github.com', owner: 'acme', repo: 'recordings' }],
    ['https://github.com/acme/recordings/', { host: 'github.com', owner: 'acme', repo: 'recordings' }],
    [
      'https://ghe.example.org/media-team/sermon.archive',
      { host: 'ghe.example.org', owner: 'media-team', repo: 'sermon.archive' },
    ],
    ['git@github.com:acme/recordings.git', { host: 'github.com', owner: 'acme', repo: 'recordings' }],
  ])('reads %s', (url, expected) => {
    expect(parseRepositoryUrl(url)).toEqual(expected);
  });

  it.each([
    'github.com/acme/recordings',
    'https://github.com/acme',
    'https://github.com/acme/recordings/tree/main',
    'ftp://github.com/acme/recordings',
    'https://user:pass@github.com/acme/recordings',
    'https://github.com/acme/..',
    '',
  ])('refuses %s', (url) => {
    expect(parseRepositoryUrl(url)).toBeUndefined();
  });
});
