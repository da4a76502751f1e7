//! The unit's logic, stage by stage: one section per stage group, each in the file of its
//! stage, joined in pipeline order into the unit's one combinational block
//! ([`crate::sections`]), but for `ChainPick` (sr's chain decisions), which reads the stage
//! registers' inputs and so comes after the sections that assign them.

use super::*;
use crate::sections::{Section, logic_sections};

mod carry;
mod execute;
mod issue;
mod port;
mod read;
mod setup;
mod views;
mod write;

logic_sections!(
    SliceUnit:
    setup::Clocking,
    port::AcceptWiring,
    views::StageViews,
    issue::IssueStage,
    read::ForwardStage,
    read::ChainDetect,
    execute::OperandStage,
    execute::ResultPlace,
    carry::CarryStages,
    read::ChainPick,
    write::WriteBack,
    port::ResponsePort,
);
