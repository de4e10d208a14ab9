import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageHeader } from '../../../src/components/PageHeader';
import NotificationStack, { STACK_MIN_TOP, stackTop } from '../../../src/notifications/NotificationStack';

const item = { id: 1, message: 'Mosque added successfully', severity: 'success' as const, open: true, duration: 4000 };

describe('notification placement', () => {
  it('opens below the page header row, and just below the top bar when no header is in view', () => {
    expect(stackTop(undefined)).toBe(STACK_MIN_TOP);
    expect(stackTop(170.4)).toBe(178);
    // Scrolled away: the header's bottom is above the top bar.
    expect(stackTop(20)).toBe(STACK_MIN_TOP);
  });

  it('measures the header of the page it is shown over', () => {
    render(<PageHeader title="Config Generator" actions={<button type="button">Add Mosque</button>} />);
    const header = screen
      .getByRole('heading', { name: 'Config Generator' })
      .closest('[data-page-header]') as HTMLElement;
    header.getBoundingClientRect = () => ({ bottom: 196 }) as DOMRect;
    render(<NotificationStack items={[item]} onClose={() => undefined} />);
    expect(screen.getByTestId('notification-stack').style.top).toBe('204px');
    expect(screen.getByText('Mosque added successfully')).toBeInTheDocument();
  });
});
