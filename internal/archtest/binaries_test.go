package archtest_test

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shippedBinaries are the tracked files that may be compiled output: the
// helper APK flow embeds and installs (helper-apk/dist, rebuilt bit for bit
// by .ci/run).
var shippedBinaries = map[string]bool{"helper-apk/dist/flow-helper.apk": true}

// objectMagic are the first bytes of executables and object files: ELF,
// Mach-O (both byte orders, 32 and 64 bit, and fat files, whose magic Java
// class files share), PE, ar archives (.a), Android dex and WebAssembly.
var objectMagic = [][]byte{
	[]byte("\x7fELF"),
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	[]byte("MZ"),
	[]byte("!<arch>\n"),
	[]byte("dex\n"),
	[]byte("\x00asm"),
}

// TestNoBinariesTracked: a 6 MB build of the fake phone sat at the root
// of the tree, committed by mistake. No tracked file is an executable or
// object file (nor a .jar or .apk) but the shipped helper APK, and every
// file with the executable bit is a script.
func TestNoBinariesTracked(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout: nothing tracked to check")
	}
	out, err := osexec.Command("git", "-C", root, "ls-files", "-s", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	for _, entry := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		if !ok || shippedBinaries[path] {
			continue
		}
		head := make([]byte, 8)
		f, err := os.Open(filepath.Join(root, path))
		if err != nil {
			continue // deleted in the work tree
		}
		n, _ := f.Read(head)
		f.Close()
		head = head[:n]
		for _, m := range objectMagic {
			if bytes.HasPrefix(head, m) {
				t.Errorf("%s is an executable or object file (starts %q): build outputs are not committed; git rm --cached it and ignore it", path, m)
			}
		}
		if ext := filepath.Ext(path); ext == ".jar" || ext == ".apk" || ext == ".class" || ext == ".o" || ext == ".so" || ext == ".dylib" || ext == ".dll" || ext == ".exe" {
			t.Errorf("%s is compiled output (%s): build it in CI or fetch it, do not commit it", path, ext)
		}
		if strings.HasPrefix(meta, "100755") && !bytes.HasPrefix(head, []byte("#!")) {
			t.Errorf("%s is executable but not a script", path)
		}
	}
}
