import { RequireSuperuser } from '../../auth/RequireSuperuser';
import { UserManagement } from './UserManagement';

/** /users: superusers only; others see a clear refusal (docs/reference.md section 6 leaves this open). */
export default function UsersPage() {
  return (
    <RequireSuperuser>
      <UserManagement />
    </RequireSuperuser>
  );
}
