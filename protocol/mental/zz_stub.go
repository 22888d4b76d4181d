package mental

import "io"

// TEMPORARY stub until the recovery branch lands.
type RecoveryShare struct{ Holder int }

func (rs *RecoveryShare) MarshalBinary() ([]byte, error) { return nil, nil }
func (rs *RecoveryShare) UnmarshalBinary(b []byte) error { return ErrMalformed }
func RecoverShare(rand io.Reader, sub *SubShare, ct *Ciphertext, ctx []byte) (RecoveryShare, error) {
	panic("stub")
}
func (rc *RecoveryCommit) VerifyRecoveryShare(dealer int, ct *Ciphertext, rs *RecoveryShare, ctx []byte) error {
	panic("stub")
}
func CombineRecovery(dealer int, rc *RecoveryCommit, ct *Ciphertext, rss []RecoveryShare, ctx []byte) (Share, error) {
	panic("stub")
}
