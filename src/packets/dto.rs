//! Wire shapes of the packet calls.

use serde::Deserialize;
use utoipa::IntoParams;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "lowercase")]
#[into_params(parameter_in = Query)]
pub struct PacketQuery {
    /// Timestamps print as local time (UTC − MinutesOffset): the browser's
    /// `getTimezoneOffset()`; default 0.
    #[param(rename = "MinutesOffset", minimum = -840, maximum = 840)]
    pub minutesoffset: Option<i32>,
}
