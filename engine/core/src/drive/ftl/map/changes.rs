//! An open-addressed u32 -> u32 table (keys are units, never NONE): the units the map holds one
//! by one, over a formula or a table of stripes.

use crate::units::NONE;

#[derive(Debug, Clone)]
pub(super) struct Changes {
    /// (unit, slot) pairs side by side, so a probe touches one cache line; unit NONE: empty.
    pub entries: Vec<(u32, u32)>,
    pub len: usize,
}

impl Changes {
    pub fn new() -> Self {
        Changes { entries: vec![(NONE, 0); 1024], len: 0 }
    }

    /// Where the probe for `key` starts.
    #[inline]
    pub fn home(&self, key: u32) -> usize {
        // The product's high half: on wasm32 a usize keeps only the low 32 bits, too few to spread.
        ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (self.entries.len() - 1)
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        while self.entries[i].0 != key && self.entries[i].0 != NONE {
            i = (i + 1) & mask;
        }
        i
    }

    #[inline]
    pub fn get(&self, key: u32) -> Option<u32> {
        let e = self.entries[self.slot(key)];
        (e.0 == key).then_some(e.1)
    }

    pub fn insert(&mut self, key: u32, value: u32) {
        if (self.len + 1) * 8 > self.entries.len() * 5 {
            let old = std::mem::replace(self, Changes { entries: vec![(NONE, 0); self.entries.len() * 2], len: 0 });
            for (k, v) in old.entries.into_iter().filter(|e| e.0 != NONE) {
                self.insert(k, v);
            }
        }
        let i = self.slot(key);
        if self.entries[i].0 == NONE {
            self.len += 1;
        }
        self.entries[i] = (key, value);
    }

    /// Drops `key` if present, moving later entries of its probe run back so every key stays
    /// reachable from its home (no tombstones).
    pub fn remove(&mut self, key: u32) {
        let mask = self.entries.len() - 1;
        let mut hole = self.slot(key);
        if self.entries[hole].0 == NONE {
            return;
        }
        self.len -= 1;
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let k = self.entries[j].0;
            if k == NONE {
                break;
            }
            // The entry at j stays if its home lies cyclically in (hole, j].
            let h = self.home(k);
            let stays = if hole <= j { hole < h && h <= j } else { hole < h || h <= j };
            if !stays {
                self.entries[hole] = self.entries[j];
                hole = j;
            }
        }
        self.entries[hole] = (NONE, 0);
    }

    /// Every (unit, slot) held.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.entries.iter().copied().filter(|e| e.0 != NONE)
    }

    pub fn memory_bytes(&self) -> u64 {
        self.entries.capacity() as u64 * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_keeps_every_other_key_reachable() {
        let mut c = Changes::new();
        // Enough keys for long probe runs and a growth; then every third removed.
        for k in 0..3000u32 {
            c.insert(k * 7, k);
        }
        for k in (0..3000u32).step_by(3) {
            c.remove(k * 7);
        }
        c.remove(5); // absent: nothing happens
        assert_eq!(c.len, 2000);
        for k in 0..3000u32 {
            assert_eq!(c.get(k * 7), (k % 3 != 0).then_some(k), "key {}", k * 7);
        }
        assert_eq!(c.iter().count(), 2000);
    }
}
