import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the Monitoring page is built (SPEC.md section 2). */
export default function MonitoringPage() {
  return <PageHeader title="Monitoring" />;
}
