package node

import "sync"

// mailbox delivers updates to one reader without ever blocking the table:
// puts queue up, and a pump goroutine hands them on in order.
type mailbox struct {
	mu     sync.Mutex
	queue  []Update
	wake   chan struct{}
	out    chan Update
	closed bool
	done   chan struct{}
}

func newMailbox() *mailbox {
	m := &mailbox{wake: make(chan struct{}, 1), out: make(chan Update, 16), done: make(chan struct{})}
	go m.pump()
	return m
}

func (m *mailbox) put(u Update) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.queue = append(m.queue, u)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *mailbox) close() {
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.done)
	}
	m.mu.Unlock()
}

func (m *mailbox) pump() {
	defer close(m.out)
	for {
		m.mu.Lock()
		q := m.queue
		m.queue = nil
		closed := m.closed
		m.mu.Unlock()
		for _, u := range q {
			select {
			case m.out <- u:
			case <-m.done:
				return
			}
		}
		if closed {
			return
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-m.wake:
		case <-m.done:
		}
	}
}
