import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { useState } from 'react';
import type { Mosque } from '../../contract/mosques';
import { useMosqueById } from '../api/mosque-lookup';
import { useMosqueChoices } from './mosque-choices';

interface MosquePickerProps {
  /** The chosen mosque's id; '' or null for none. */
  value: string | null;
  onChange: (mosqueId: string) => void;
  error?: string;
  /** What the field says under it when nothing is wrong. */
  helperText: string;
  /** Names for the open and close buttons, where MUI's "Open"/"Close" would clash with the page's. */
  openText?: string;
  closeText?: string;
  sx?: SxProps<Theme>;
}

/** Picks a mosque by its name, searching the fleet on the server (a typed id could name no mosque at all). */
export function MosquePicker({ value, onChange, error, helperText, openText, closeText, sx }: MosquePickerProps) {
  const { props, more } = useMosqueChoices();
  // The mosque just picked is known; one chosen before (a form opened again) is read by its id.
  const [picked, setPicked] = useState<Mosque | null>(null);
  const known = picked !== null && picked.mosque_id === value;
  const stored = useMosqueById(known ? null : value);
  const selected = !value ? null : known ? picked : (stored.data ?? null);
  return (
    <Autocomplete<Mosque>
      {...props}
      sx={sx}
      openText={openText}
      closeText={closeText}
      value={selected}
      onChange={(_event, mosque) => {
        setPicked(mosque);
        onChange(mosque?.mosque_id ?? '');
      }}
      renderOption={({ key, ...optionProps }, mosque) => (
        <li key={key} {...optionProps}>
          {mosque.name}
          {mosque.city ? `, ${mosque.city}` : ''} ({mosque.mosque_id})
        </li>
      )}
      renderInput={(params) => (
        <TextField {...params} label="Mosque" error={Boolean(error)} helperText={error ?? more ?? helperText} />
      )}
    />
  );
}
