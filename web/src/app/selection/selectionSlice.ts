import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { sessionEnded } from '../../features/session/sessionSlice.ts';

/**
 * Which customer and billing account the user is looking at: UI state the server does not own.
 * Ids are wishes; `useSelectedCustomer` and `useBillingAccounts` resolve them against what the user
 * may see (spec 001 §4), so a stale id falls back to the first customer or account.
 */
export interface SelectionState {
  customerId: string | null;
  billingAccountId: string | null;
}

export const initialSelectionState: SelectionState = { customerId: null, billingAccountId: null };

export const selectionSlice = createSlice({
  name: 'selection',
  initialState: initialSelectionState,
  reducers: {
    /** Selecting a customer resets the billing account to its first (spec 001 §4). */
    customerSelected(state, action: PayloadAction<{ customerId: string }>) {
      if (state.customerId === action.payload.customerId) return;
      state.customerId = action.payload.customerId;
      state.billingAccountId = null;
    },
    billingAccountSelected(state, action: PayloadAction<{ billingAccountId: string }>) {
      state.billingAccountId = action.payload.billingAccountId;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(sessionEnded, () => initialSelectionState);
  },
});

export const { customerSelected, billingAccountSelected } = selectionSlice.actions;
