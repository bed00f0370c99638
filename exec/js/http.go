package js

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"

	"github.com/dop251/goja"
)

// maxResponseBody bounds what one http.* call reads into a script string.
const maxResponseBody = 64 << 20

// httpObject is the `http` global of Maestro's JsHttp:
//
//	http.get(url, params?)    http.post(url, params?)
//	http.put(url, params?)    http.delete(url, params?)
//	http.request(url, {method = "GET", ...params})
//
// params: headers (object; each value is sent as String(value)), body
// (sent as String(body)), multipartForm ({field: "value", ...}; it replaces
// body when both are given). Each call returns
// {ok, status, body, headers}: ok is a 2xx status, body the response text,
// headers an object with lower-case names whose repeated values are joined
// by ",".
//
// Network errors, and the evaluation's deadline, throw an Error the script
// may catch. A multipartForm part given as {filePath, mediaType} (a file
// upload, in Maestro) throws: scripts have no file access in flow.
func (e *Engine) httpObject() *goja.Object {
	o := e.vm.NewObject()
	for _, m := range []struct{ name, method string }{
		{"get", http.MethodGet}, {"post", http.MethodPost},
		{"put", http.MethodPut}, {"delete", http.MethodDelete},
		{"request", ""},
	} {
		mustSet(o, m.name, func(call goja.FunctionCall) goja.Value {
			return e.httpCall("http."+m.name, m.method, call)
		})
	}
	return o
}

func (e *Engine) httpCall(fn, method string, call goja.FunctionCall) goja.Value {
	urlArg := call.Argument(0)
	if goja.IsUndefined(urlArg) || goja.IsNull(urlArg) {
		panic(e.vm.NewTypeError(fn + ": the first argument must be a URL"))
	}
	url := e.stringOf(urlArg)
	var params *goja.Object
	if p := call.Argument(1); !goja.IsUndefined(p) && !goja.IsNull(p) {
		params = p.ToObject(e.vm)
	}
	if method == "" {
		method = http.MethodGet
		if m := e.param(params, "method"); m != nil {
			method = e.stringOf(m)
		}
	}

	var body io.Reader
	contentType := ""
	if form := e.param(params, "multipartForm"); form != nil {
		body, contentType = e.multipart(fn, form.ToObject(e.vm))
	} else if b := e.param(params, "body"); b != nil {
		body = strings.NewReader(e.stringOf(b))
	}

	req, err := http.NewRequestWithContext(e.evalCtx, method, url, body)
	if err != nil {
		e.throwError(fmt.Sprintf("%s %s: %v", fn, url, err))
	}
	if h := e.param(params, "headers"); h != nil {
		ho := h.ToObject(e.vm)
		for _, k := range ho.Keys() {
			v := e.stringOf(ho.Get(k))
			if strings.EqualFold(k, "Host") {
				req.Host = v
				continue
			}
			req.Header.Add(k, v)
		}
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}

	resp, err := e.client.Do(req)
	if err != nil {
		e.throwError(fmt.Sprintf("%s %s: %v", fn, url, err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody+1))
	if err != nil {
		e.throwError(fmt.Sprintf("%s %s: reading the response: %v", fn, url, err))
	}
	if len(data) > maxResponseBody {
		e.throwError(fmt.Sprintf("%s %s: the response body is larger than %d MiB", fn, url, maxResponseBody>>20))
	}

	headers := e.vm.NewObject()
	names := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		mustSet(headers, strings.ToLower(k), strings.Join(resp.Header.Values(k), ","))
	}
	out := e.vm.NewObject()
	mustSet(out, "ok", resp.StatusCode >= 200 && resp.StatusCode < 300)
	mustSet(out, "status", resp.StatusCode)
	mustSet(out, "body", string(data))
	mustSet(out, "headers", headers)
	return out
}

// param is params[name], or nil when params or the value is missing.
func (e *Engine) param(params *goja.Object, name string) goja.Value {
	if params == nil {
		return nil
	}
	v := params.Get(name)
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	return v
}

// multipart encodes a multipartForm object as multipart/form-data with one
// text part per field, in the object's key order.
func (e *Engine) multipart(fn string, form *goja.Object) (io.Reader, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, k := range form.Keys() {
		v := form.Get(k)
		if obj, ok := v.(*goja.Object); ok {
			if fp := e.param(obj, "filePath"); fp != nil {
				e.throwError(fmt.Sprintf("%s: multipartForm field %q uploads the file %q, but scripts cannot read files in flow; "+
					"put the content in the form as a string instead", fn, k, e.stringOf(fp)))
			}
		}
		if err := w.WriteField(k, e.stringOf(v)); err != nil {
			e.throwError(fmt.Sprintf("%s: multipartForm field %q: %v", fn, k, err))
		}
	}
	if err := w.Close(); err != nil {
		e.throwError(fmt.Sprintf("%s: multipartForm: %v", fn, err))
	}
	return &buf, w.FormDataContentType()
}
