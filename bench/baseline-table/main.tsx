import { createRoot } from 'react-dom/client';
import { useEffect, useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import CssBaseline from '@mui/material/CssBaseline';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';

// The baseline of the config-first-page benchmark: the least a React + MUI page can do to show the
// same first page of mosques: ask the same server for it with the same token, render the same columns
// (the console's nine: prayer times are not read yet on its first page, and each row has three actions).
interface Row {
  mosque_id: string;
  name: string;
  city: string | null;
  active: boolean;
  languages: string[];
  latitude: number | null;
}

function MosqueTable() {
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    void fetch('/api/config/mosques?limit=10&offset=0', {
      headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    })
      .then((response) => response.json() as Promise<{ data: { mosques: Row[] } }>)
      .then((body) => setRows(body.data.mosques));
  }, []);
  return (
    <Table aria-label="Mosques" size="small">
      <TableHead>
        <TableRow>
          {['', 'Status', 'Mosque ID', 'Name', 'City', 'Languages', 'Coordinates', 'Prayer Times', 'Actions'].map(
            (label) => (
              <TableCell key={label}>{label}</TableCell>
            ),
          )}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.mosque_id}>
            <TableCell padding="checkbox">
              <Checkbox size="small" />
            </TableCell>
            <TableCell>
              <Chip size="small" label={row.active ? 'Enabled' : 'Disabled'} />
            </TableCell>
            <TableCell>{row.mosque_id}</TableCell>
            <TableCell>
              <p>{row.name}</p>
            </TableCell>
            <TableCell>{row.city ?? '—'}</TableCell>
            <TableCell>
              {row.languages.map((code) => (
                <Chip key={code} size="small" label={code} />
              ))}
            </TableCell>
            <TableCell>
              <Chip size="small" label={row.latitude === null ? 'Missing' : 'Available'} />
            </TableCell>
            <TableCell>
              <Chip size="small" label="Pending" />
            </TableCell>
            <TableCell>
              <IconButton size="small" aria-label="Test stream">
                <NetworkCheckIcon fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label="Edit">
                <EditIcon fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label="Delete">
                <DeleteIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

createRoot(document.getElementById('root')!).render(
  <ThemeProvider theme={createTheme({ palette: { mode: 'dark' } })}>
    <CssBaseline />
    <MosqueTable />
  </ThemeProvider>,
);
