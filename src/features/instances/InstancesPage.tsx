import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the Instances page is built (SPEC.md section 2). */
export default function InstancesPage() {
  return <PageHeader title="Instances" />;
}
