import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the GitHub page is built (SPEC.md section 2). */
export default function GithubPage() {
  return <PageHeader title="GitHub" />;
}
