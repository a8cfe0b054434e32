"""The requests waiting to be fetched: a scheduler with disk queues, hosts taking turns, a disk dupefilter."""
