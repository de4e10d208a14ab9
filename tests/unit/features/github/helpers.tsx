import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../support/render';
import GithubPage from '../../../../src/features/github/GithubPage';

/** The GitHub page (mocks behind it), once the status has loaded. */
export async function openGithub(as = 'admin') {
  const rendered = renderWithProviders(<GithubPage />, { path: '/github', as });
  await screen.findByRole('heading', { name: 'GitHub Repository Access', level: 1 });
  await screen.findByRole('region', { name: 'Configuration Details' });
  return rendered;
}

export const card = (title: string) => {
  const root = screen.getByText(title, { selector: 'p' }).closest('.MuiCard-root');
  if (!(root instanceof HTMLElement)) throw new Error(`No card ${title}`);
  return within(root);
};

export const region = (name: string) => within(screen.getByRole('region', { name }));

export const dialog = (name: string) => within(screen.getByRole('dialog', { name }));

/** The notifications shown top right (filled alerts). */
export async function findNotification(text: string) {
  const found = await screen.findByText(text, { selector: '.MuiAlert-filled .MuiAlert-message' });
  return found.closest('.MuiAlert-root') as HTMLElement;
}
