package lint

import "sync"

var (
	registryOnce sync.Once
	byCode       map[string]*Rule
	byName       map[string]*Rule
)

func registry() {
	registryOnce.Do(func() {
		byCode, byName = map[string]*Rule{}, map[string]*Rule{}
		for _, r := range All() {
			byCode[r.Code] = r
			byName[r.Name] = r
		}
	})
}

// Lookup returns the rule with the given code ("OKF101") or name ("description-missing"), or nil.
// Configuration and suppression comments accept either.
func Lookup(codeOrName string) *Rule {
	registry()
	if r := byCode[codeOrName]; r != nil {
		return r
	}
	return byName[codeOrName]
}
