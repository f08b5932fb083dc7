//! fio's steady-state check: once a second, over a rolling window of `ss_dur` seconds, the
//! phase's IOPS (or bandwidth) deviates from its mean by less than the limit, or its least-squares
//! slope is below it; then the phase ends.

use std::collections::VecDeque;

use crate::host::fio::SteadyState;
use crate::units::NS_PER_S;

pub struct Watch {
    pub ss: SteadyState,
    /// When data collection starts, ns.
    start_ns: u64,
    /// The second being counted (from `start_ns`) and its commands and bytes.
    second: u64,
    ios: u64,
    bytes: u64,
    /// The last `duration_s` seconds, oldest first.
    pub iops: VecDeque<u64>,
    pub bw: VecDeque<u64>,
    pub attained: bool,
    pub criterion: f64,
    pub max_deviation: f64,
    pub slope: f64,
}

impl Watch {
    /// Watches a phase that started at `phase_start_ns`.
    pub fn new(ss: SteadyState, phase_start_ns: u64) -> Self {
        Watch {
            start_ns: phase_start_ns + ss.ramp_ns,
            ss,
            second: 0,
            ios: 0,
            bytes: 0,
            iops: VecDeque::new(),
            bw: VecDeque::new(),
            attained: false,
            criterion: 0.0,
            max_deviation: 0.0,
            slope: 0.0,
        }
    }

    /// A command of the phase completed at `done_ns` (in completion order); true when the
    /// condition has just been met.
    pub fn completed(&mut self, done_ns: u64, bytes: u64) -> bool {
        if self.attained || done_ns < self.start_ns {
            return false;
        }
        let second = (done_ns - self.start_ns) / NS_PER_S;
        while self.second < second {
            if self.close_second() {
                return true;
            }
        }
        self.ios += 1;
        self.bytes += bytes;
        false
    }

    /// The second ends: its IOPS and bandwidth join the window, which is then judged.
    fn close_second(&mut self) -> bool {
        let window = self.ss.duration_s.max(1) as usize;
        self.iops.push_back(self.ios);
        self.bw.push_back(self.bytes);
        if self.iops.len() > window {
            self.iops.pop_front();
            self.bw.pop_front();
        }
        (self.second, self.ios, self.bytes) = (self.second + 1, 0, 0);
        if self.iops.len() < window {
            return false;
        }
        let ys: Vec<f64> = if self.ss.bandwidth { &self.bw } else { &self.iops }.iter().map(|&y| y as f64).collect();
        let n = ys.len() as f64;
        let mean = ys.iter().sum::<f64>() / n;
        self.max_deviation = ys.iter().map(|y| (y - mean).abs()).fold(0.0, f64::max);
        // Least squares over x = 0..n-1.
        let x_mean = (n - 1.0) / 2.0;
        let sxy: f64 = ys.iter().enumerate().map(|(x, y)| (x as f64 - x_mean) * (y - mean)).sum();
        let sxx: f64 = (0..ys.len()).map(|x| (x as f64 - x_mean).powi(2)).sum();
        self.slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
        let raw = if self.ss.slope { self.slope } else { self.max_deviation };
        self.criterion = if self.ss.percent {
            if mean > 0.0 {
                100.0 * raw / mean
            } else {
                f64::INFINITY
            }
        } else {
            raw
        };
        self.attained = self.criterion.abs() < self.ss.limit;
        self.attained
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ss(text: &str, slope: bool, limit: f64) -> SteadyState {
        SteadyState { bandwidth: false, slope, limit, percent: true, duration_s: 3, ramp_ns: 0, text: text.into() }
    }

    #[test]
    fn holds_once_the_window_is_flat() {
        let mut w = Watch::new(ss("iops:10%", false, 10.0), 0);
        // 100, 50, 100, 100, 100 commands in successive seconds.
        let mut attained_at = None;
        for (s, n) in [100u64, 50, 100, 100, 100, 100].iter().enumerate() {
            for i in 0..*n {
                if w.completed(s as u64 * NS_PER_S + i * (NS_PER_S / n), 4096) {
                    attained_at.get_or_insert(s);
                }
            }
        }
        // Seconds 2..4 are flat; judged when second 5's first command completes.
        assert_eq!(attained_at, Some(5));
        assert_eq!(w.iops, [100, 100, 100]);
        let mut rising = Watch::new(ss("iops_slope:1%", true, 1.0), 0);
        for s in 0..10u64 {
            for i in 0..(100 + 20 * s) {
                assert!(!rising.completed(s * NS_PER_S + i * 1000, 4096));
            }
        }
        assert!((rising.slope - 20.0).abs() < 1e-9, "{}", rising.slope);
    }
}
