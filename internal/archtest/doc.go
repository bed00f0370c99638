// Package archtest holds the architecture test: the import graph of the
// design card as a failing test rather than a review comment.
package archtest
