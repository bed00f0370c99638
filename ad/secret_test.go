package ad

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flow-runner/flow/canonical"
)

// TestParseScriptQuotesNothingOfAForeignFile: a file parsed as an .ad
// script whose first line is no command (a .env file, a private key, a
// token; an unclosed quote included) is refused with the line's position
// and length, never its text. Once a line parsed as a script's, errors
// quote as agent-device's do, and a misspelt first command still gets
// its did-you-mean.
func TestParseScriptQuotesNothingOfAForeignFile(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"DB_PASSWORD=hunter2\nAPI_KEY=sklive\n",
		"# secrets\n\nTOKEN=\"hunter2 sklive\n",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEhunter2sklive\n",
		"\"hunter2sklive\" x\n",
		"ghp_hunter2sklive1234567890abcdefghijklmnop\n",
	} {
		_, err := ParseScript("x.ad", []byte(src), ParseOptions{})
		ce, ok := canonical.AsError(err)
		if !ok || ce.Code != canonical.CodeInvalidArgs || ce.Pos.Line == 0 || !strings.Contains(ce.Message, "is not an .ad script") {
			t.Errorf("%q: want INVALID_ARGS saying it is not a script, at a line, got %v", src, err)
			continue
		}
		text, _ := json.Marshal(ce)
		for _, secret := range []string{"hunter2", "sklive"} {
			if strings.Contains(string(text), secret) {
				t.Errorf("%q: the error repeats %q: %s", src, secret, text)
			}
		}
	}
	for src, want := range map[string]string{
		"clck \"Log in\"\n":                "did you mean click?",
		"click \"Log in\n":                 "close the quoted value",
		"context platform=ios\nA=b c\n":    `unknown command "A=b"`,
		"export TOKEN=x\n":                 `unknown command "export"`,
		"open com.example.app\nfill \"x\n": "close the quoted value",
	} {
		_, err := ParseScript("x.ad", []byte(src), ParseOptions{})
		ce, _ := canonical.AsError(err)
		if ce == nil || !strings.Contains(ce.Message+" "+ce.Hint, want) {
			t.Errorf("%q: want %q, got %v", src, want, err)
		}
	}
}
