import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the Scheduling Management page is built (SPEC.md section 2). */
export default function SchedulingPage() {
  return <PageHeader title="Scheduling Management" />;
}
