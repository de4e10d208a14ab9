import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { Mosque } from '../../../contract/mosques';
import { useMosques } from '../../api/config';

interface MosquePickerProps {
  /** The chosen mosque's id; '' for none. */
  value: string;
  onChange: (mosqueId: string) => void;
  error?: string;
}

/** Picks the mosque a recording is filed under by its name (a typed id could name no mosque at all). */
export function MosquePicker({ value, onChange, error }: MosquePickerProps) {
  const mosques = useMosques();
  const options = mosques.data ?? [];
  const selected = options.find((mosque) => mosque.mosque_id === value) ?? null;
  const helper = mosques.isError ? 'The mosque list could not be loaded' : 'Optional: search by name or city';
  return (
    <Autocomplete<Mosque>
      options={options}
      value={selected}
      loading={mosques.isPending}
      onChange={(_event, mosque) => onChange(mosque?.mosque_id ?? '')}
      getOptionLabel={(mosque) => mosque.name}
      getOptionKey={(mosque) => mosque.mosque_id}
      isOptionEqualToValue={(option, current) => option.mosque_id === current.mosque_id}
      filterOptions={(list, { inputValue }) => {
        const query = inputValue.trim().toLowerCase();
        return list.filter((mosque) =>
          [mosque.name, mosque.city ?? '', mosque.mosque_id].some((text) => text.toLowerCase().includes(query)),
        );
      }}
      renderOption={({ key, ...props }, mosque) => (
        <li key={key} {...props}>
          {mosque.name}
          {mosque.city ? `, ${mosque.city}` : ''} ({mosque.mosque_id})
        </li>
      )}
      renderInput={(params) => (
        <TextField {...params} label="Mosque" error={Boolean(error)} helperText={error ?? helper} />
      )}
    />
  );
}
