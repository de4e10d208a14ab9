import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CodeIcon from '@mui/icons-material/Code';
import KeyIcon from '@mui/icons-material/Key';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { GENERATE_PAT_URL } from './github-labels';

interface GithubQuickActionsProps {
  canConfigure: boolean;
  onConfigure: () => void;
  onViewRaw: () => void;
}

/** Configure PAT, View Raw Status, Generate New PAT (an external link). */
export function GithubQuickActions({ canConfigure, onConfigure, onViewRaw }: GithubQuickActionsProps) {
  return (
    <Card component="section" aria-labelledby="github-actions-title">
      <CardContent>
        <Typography id="github-actions-title" variant="h6" component="h2" gutterBottom>
          Quick Actions
        </Typography>
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1.5 }}>
          <Button variant="contained" startIcon={<KeyIcon />} onClick={onConfigure} disabled={!canConfigure}>
            Configure PAT
          </Button>
          <Button variant="outlined" startIcon={<CodeIcon />} onClick={onViewRaw}>
            View Raw Status
          </Button>
          <Button
            variant="outlined"
            endIcon={<OpenInNewIcon />}
            href={GENERATE_PAT_URL}
            target="_blank"
            rel="noopener noreferrer"
          >
            Generate New PAT
          </Button>
        </Stack>
        {!canConfigure && (
          <Typography variant="body2" color="textSecondary" sx={{ mt: 1.5 }}>
            Only superusers can change repository access.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
