package harness

import "sync"

// forEach calls f(0) … f(n-1), at most limit at once, and returns when all
// have returned.
func forEach(n, limit int, f func(i int)) {
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}
