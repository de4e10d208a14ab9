import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the Config Generator page is built (SPEC.md section 2). */
export default function ConfigPage() {
  return <PageHeader title="Config Generator" />;
}
