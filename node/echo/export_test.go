package echo

// The message format's insides, for the forgery tests in echo_test.
var (
	WriteSigned = writeSigned
	ReadSigned  = readSigned
	Ask         = ask
	Reply       = reply
	PayloadSize = payloadSize
)
