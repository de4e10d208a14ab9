import { describe, expect, it } from 'vitest';
import { filterUsers } from '../../../src/lib/user-search';

const users = [
  { username: 'admin', email: 'root@example.com', full_name: 'System Administrator' },
  { username: 'operator', email: 'ops@mosque.org', full_name: null },
  { username: 'amina', email: 'amina@example.com', full_name: 'Amina Yusuf' },
];
const names = (query: string) => filterUsers(users, query).map((u) => u.username);

describe('filterUsers', () => {
  it('returns everyone for an empty or blank query', () => {
    expect(names('')).toEqual(['admin', 'operator', 'amina']);
    expect(names('   ')).toEqual(['admin', 'operator', 'amina']);
  });

  it('matches a substring of username, email or full name, ignoring case', () => {
    expect(names('OPER')).toEqual(['operator']);
    expect(names('mosque.org')).toEqual(['operator']);
    expect(names('yusuf')).toEqual(['amina']);
    expect(names('example')).toEqual(['admin', 'amina']);
    expect(names('ADMIN')).toEqual(['admin']);
  });

  it('matches nothing when nothing contains the text', () => {
    expect(names('zzz')).toEqual([]);
  });

  it('does not change the list it was given', () => {
    const copy = [...users];
    filterUsers(users, 'a');
    expect(users).toEqual(copy);
  });
});
