import type { AutocompleteInputChangeReason } from '@mui/material/Autocomplete';
import { useState } from 'react';
import type { Mosque } from '../../contract/mosques';
import { apiErrorMessage } from '../api/client';
import { MOSQUE_CHOICES, useMosqueSearch } from '../api/mosque-lookup';
import { countOf } from '../../contract/plural';

/**
 * What an Autocomplete of mosques needs to search the fleet on the server as the operator types,
 * instead of holding every mosque: its options (the first matches), their labels and what it says
 * when nothing matches or the search failed (`props`, spread into the Autocomplete), and a note for
 * under the field when more match than are offered (`more`).
 */
export function useMosqueChoices({ activeOnly = false } = {}) {
  const [typed, setTyped] = useState('');
  const search = useMosqueSearch(typed, { activeOnly });
  const total = search.data?.total ?? 0;
  const noOptionsText = search.isError
    ? apiErrorMessage(search.error, 'The mosques could not be searched')
    : typed.trim()
      ? 'No mosque matches'
      : activeOnly
        ? 'No active mosques'
        : 'No mosques';
  const more = total > MOSQUE_CHOICES ? `${MOSQUE_CHOICES} of ${countOf(total, 'mosque')} shown: type to narrow` : null;
  const props = {
    options: search.data?.mosques ?? [],
    loading: search.isFetching,
    noOptionsText,
    // The server searched already (name, id, city, district, country).
    filterOptions: (options: Mosque[]) => options,
    getOptionLabel: (mosque: Mosque) => mosque.name,
    getOptionKey: (mosque: Mosque) => mosque.mosque_id,
    isOptionEqualToValue: (option: Mosque, current: Mosque) => option.mosque_id === current.mosque_id,
    onInputChange: (_event: unknown, value: string, reason: AutocompleteInputChangeReason) => {
      // A choice writes its name into the field ("reset"): that is not a search.
      if (reason !== 'reset') setTyped(value);
    },
  };
  return { props, more };
}
