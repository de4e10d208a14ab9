import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { listViewFromParams, nextSort } from '../../../src/lib/list-view';
import { useUrlParams } from '../../../src/lib/url-params';

const FIELDS = ['mosque', 'size'] as const;
const atAddress = (search: string) =>
  function Router({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[`/recordings${search}`]}>{children}</MemoryRouter>;
  };
/** A click on the Mosque column, as the list pages make it. */
const clickMosque = (current: URLSearchParams) => nextSort(listViewFromParams(current, FIELDS), 'mosque');

describe('useUrlParams', () => {
  it('applies a second change to the first one before the view has rendered it (two quick clicks sort descending)', () => {
    const { result } = renderHook(() => useUrlParams(), { wrapper: atAddress('?q=Mosque+2') });
    act(() => {
      result.current.update(clickMosque);
      result.current.update(clickMosque);
    });
    expect(result.current.params.toString()).toBe('q=Mosque+2&sort=mosque&order=desc');
  });

  it('reads the address as last changed from a handler of an earlier render', () => {
    const { result } = renderHook(() => useUrlParams(), { wrapper: atAddress('') });
    const { update } = result.current;
    act(() => update(clickMosque));
    expect(result.current.params.get('order')).toBe('asc');
    act(() => update(clickMosque));
    expect(result.current.params.toString()).toBe('sort=mosque&order=desc');
  });

  it('removes a key set to null or empty, and keeps the others', () => {
    const { result } = renderHook(() => useUrlParams(), { wrapper: atAddress('?q=x&page=3&status=failed') });
    act(() => result.current.update({ q: '', page: null, sort: 'size' }));
    expect(result.current.params.toString()).toBe('status=failed&sort=size');
  });
});
