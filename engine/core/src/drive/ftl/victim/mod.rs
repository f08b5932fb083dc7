//! GC victim policies: which closed block a die collects next. Each policy is one file
//! implementing `VictimPolicy`, registered by one line in `victim_policies!` below; the config
//! names it (`gc.victim`). Dispatch is a `match` over an enum, so the hot path stays static.

use super::blocks::Blocks;
use crate::config::GcConfig;
use crate::units::ConfigError;

/// What a policy may know when it is built.
pub struct PolicyContext {
    pub dies: u32,
    pub blocks_per_die: u32,
    /// Blocks a sampling policy draws per choice (`gc.victim_choices`).
    pub choices: u32,
    pub seed: u64,
}

pub trait VictimPolicy {
    /// One sentence for people choosing a policy.
    const DESCRIPTION: &'static str;

    fn new(ctx: &PolicyContext) -> Self;

    /// The next victim on `die` among its closed blocks, or None if it has none. The caller
    /// takes it out of the closed set.
    fn pick(&mut self, die: u32, blocks: &mut Blocks) -> Option<u32>;

    /// `block` was just filled and closed.
    #[inline]
    fn closed(&mut self, _block: u32, _blocks: &Blocks) {}

    /// `block` left the closed set other than by `pick` (static wear levelling took it).
    fn taken(&mut self, _block: u32, _die: u32) {}

    fn memory_bytes(&self) -> u64 {
        0
    }
}

/// Registers each policy: its config name, its variant, and the type in its own file.
macro_rules! victim_policies {
    ($($name:literal => $variant:ident($module:ident::$policy:ident),)*) => {
        $(mod $module;)*

        /// The configured policy.
        pub enum Victim {
            $($variant($module::$policy),)*
        }

        /// Every policy: its name and what it does.
        pub const POLICIES: &[(&str, &str)] = &[$(($name, <$module::$policy as VictimPolicy>::DESCRIPTION),)*];

        impl Victim {
            pub fn new(name: &str, ctx: &PolicyContext) -> Result<Victim, ConfigError> {
                match name {
                    $($name => Ok(Victim::$variant(<$module::$policy as VictimPolicy>::new(ctx))),)*
                    _ => Err(unknown(name)),
                }
            }

            #[inline]
            pub fn pick(&mut self, die: u32, blocks: &mut Blocks) -> Option<u32> {
                match self {
                    $(Victim::$variant(p) => p.pick(die, blocks),)*
                }
            }

            #[inline]
            pub fn closed(&mut self, block: u32, blocks: &Blocks) {
                match self {
                    $(Victim::$variant(p) => p.closed(block, blocks),)*
                }
            }

            pub fn taken(&mut self, block: u32, die: u32) {
                match self {
                    $(Victim::$variant(p) => p.taken(block, die),)*
                }
            }

            pub fn memory_bytes(&self) -> u64 {
                match self {
                    $(Victim::$variant(p) => p.memory_bytes(),)*
                }
            }
        }
    };
}

victim_policies! {
    "greedy" => Greedy(greedy::Greedy),
    "cost-benefit" => CostBenefit(cost_benefit::CostBenefit),
    "fifo" => Fifo(fifo::Fifo),
    "d-choices" => DChoices(d_choices::DChoices),
}

pub use d_choices::d_choices_wa_theory;
pub use greedy::greedy_wa_theory;

fn unknown(name: &str) -> ConfigError {
    let names: Vec<&str> = POLICIES.iter().map(|(n, _)| *n).collect();
    ConfigError::new("gc.victim", format!("unknown GC victim policy '{}' (allowed: {})", name, names.join(", ")))
}

/// The configured policy name must be registered.
pub fn check(gc: &GcConfig) -> Result<(), ConfigError> {
    if POLICIES.iter().any(|(n, _)| *n == gc.victim) {
        Ok(())
    } else {
        Err(unknown(&gc.victim))
    }
}
