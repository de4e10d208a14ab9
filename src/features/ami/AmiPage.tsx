import { PageHeader } from '../../components/PageHeader';

/** Placeholder until the AMI Manager page is built (SPEC.md section 2). */
export default function AmiPage() {
  return <PageHeader title="AMI Manager" />;
}
