import { Ledger } from './ledger';

export function audit(ledger: Ledger): Ledger {
  return ledger.record(0);
}

export const opening = new Ledger().record(1);
