import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import RefreshIcon from '@mui/icons-material/Refresh';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { useState } from 'react';
import type { GithubConfigureRequest, GithubValidationResult } from '../../../contract/github';
import { apiErrorMessage } from '../../api/client';
import { GITHUB_MESSAGES, useConfigureGithub, useGithubStatus, useValidateGithub } from '../../api/github';
import { useAuth } from '../../auth/context';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { useNotify } from '../../notifications/context';
import { ConfigureDialog } from './ConfigureDialog';
import { GithubQuickActions } from './GithubQuickActions';
import { ConfigurationDetails, RepositoryInformation } from './GithubDetailsCards';
import { GithubStatusCards } from './GithubStatusCards';
import { RawStatusDialog } from './RawStatusDialog';
import { ValidationResultsDialog } from './ValidationResultsDialog';

/** /github, nav label "GitHub" (docs/reference.md section 2, Repository access). */
export default function GithubPage() {
  const { user } = useAuth();
  const notify = useNotify();
  const status = useGithubStatus();
  const validate = useValidateGithub();
  const configure = useConfigureGithub();
  const [configureOpen, setConfigureOpen] = useState(false);
  const [dialogKey, setDialogKey] = useState(0);
  const [configureError, setConfigureError] = useState<string | null>(null);
  const [rawOpen, setRawOpen] = useState(false);
  const [results, setResults] = useState<GithubValidationResult | null>(null);
  const [dismissedError, setDismissedError] = useState(0);

  const loadError =
    status.isError && status.errorUpdatedAt !== dismissedError
      ? apiErrorMessage(status.error, GITHUB_MESSAGES.loadFailed, GITHUB_MESSAGES.networkError)
      : null;
  const configured = status.data?.configuration.status === 'configured';

  const runValidation = () => {
    validate.mutate(undefined, {
      onSuccess: (result) => {
        if (result.overall_status === 'success') notify.success(GITHUB_MESSAGES.validated);
        else notify.error(GITHUB_MESSAGES.validationFailed);
        setResults(result);
      },
      onError: (error) =>
        notify.error(apiErrorMessage(error, GITHUB_MESSAGES.validationFailed, GITHUB_MESSAGES.networkError)),
    });
  };

  const openConfigure = () => {
    setConfigureError(null);
    setDialogKey((key) => key + 1);
    setConfigureOpen(true);
  };

  const save = (body: GithubConfigureRequest) => {
    setConfigureError(null);
    configure.mutate(body, {
      onSuccess: (data) => {
        notify.success(data.message || GITHUB_MESSAGES.configured);
        setConfigureOpen(false);
        setResults(data.validation);
      },
      onError: (error) =>
        setConfigureError(apiErrorMessage(error, GITHUB_MESSAGES.configurationFailed, GITHUB_MESSAGES.networkError)),
    });
  };

  const config = status.data?.configuration;
  return (
    <>
      <PageHeader
        title="GitHub Repository Access"
        subtitle="Personal access token for the repository the recordings and configurations are pushed to"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              onClick={() => void status.refetch()}
              disabled={status.isFetching}
            >
              Refresh
            </Button>
            <Button
              variant="contained"
              startIcon={<VerifiedUserIcon />}
              onClick={runValidation}
              disabled={!configured || validate.isPending}
            >
              {validate.isPending ? 'Validating...' : 'Validate Access'}
            </Button>
          </>
        }
      />
      <ErrorBanner message={loadError} onClose={() => setDismissedError(status.errorUpdatedAt)} />
      {(status.isPending || validate.isPending) && (
        <LinearProgress sx={{ mb: 2 }} aria-label="Checking GitHub access" />
      )}
      <Grid container spacing={3}>
        <GithubStatusCards status={status.data} />
        <Grid size={{ xs: 12, md: 6 }}>
          <ConfigurationDetails status={status.data} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <RepositoryInformation status={status.data} />
        </Grid>
        <Grid size={12}>
          <GithubQuickActions
            canConfigure={Boolean(user?.is_superuser)}
            onConfigure={openConfigure}
            onViewRaw={() => setRawOpen(true)}
          />
        </Grid>
      </Grid>
      {configureOpen && (
        <ConfigureDialog
          key={dialogKey}
          open
          defaults={{
            repoUrl: config?.repo_url ?? '',
            user: config?.github_user ?? undefined,
            email: config?.github_email ?? undefined,
          }}
          saving={configure.isPending}
          error={configureError}
          onCancel={() => setConfigureOpen(false)}
          onSubmit={save}
        />
      )}
      <RawStatusDialog open={rawOpen} onClose={() => setRawOpen(false)} />
      <ValidationResultsDialog result={results} onClose={() => setResults(null)} />
    </>
  );
}
