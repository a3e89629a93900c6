// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

interface IMintable {
    function mint(address to, uint256 amount) external;
}

/// @title YieldVault
/// @notice LOCAL devnet venue: an ERC-4626 vault over a MintableERC20 whose strategy "earns" a
///         fixed amount of assets per second (minted into the vault on every interaction, and
///         counted in totalAssets in between), so the share price rises with block time and a
///         bigger deposit dilutes the yield like a real fixed-reward strategy. The owner can pause
///         it and cap deposits, which is what the service's health checks read.
contract YieldVault is ERC4626, Ownable, Pausable {
    uint256 public yieldPerSecond;
    /// @notice Most assets the vault accepts in total; 0 = no cap.
    uint256 public depositCap;
    uint256 public lastAccrual;

    constructor(IERC20 asset_, string memory name_, string memory symbol_, uint256 yieldPerSecond_, uint256 depositCap_, address owner_)
        ERC20(name_, symbol_)
        ERC4626(asset_)
        Ownable(owner_)
    {
        yieldPerSecond = yieldPerSecond_;
        depositCap = depositCap_;
        lastAccrual = block.timestamp;
    }

    /// @notice Yield earned since the last accrual; nothing accrues while nobody holds shares.
    function pendingYield() public view returns (uint256) {
        if (totalSupply() == 0) return 0;
        return (block.timestamp - lastAccrual) * yieldPerSecond;
    }

    function totalAssets() public view override returns (uint256) {
        return super.totalAssets() + pendingYield();
    }

    /// @notice Realises pending yield (anyone may poke).
    function accrue() public {
        uint256 pending = pendingYield();
        lastAccrual = block.timestamp;
        if (pending > 0) IMintable(asset()).mint(address(this), pending);
    }

    function maxDeposit(address) public view override returns (uint256) {
        if (paused()) return 0;
        if (depositCap == 0) return type(uint256).max;
        uint256 assets = totalAssets();
        return assets >= depositCap ? 0 : depositCap - assets;
    }

    function maxMint(address receiver) public view override returns (uint256) {
        uint256 assets = maxDeposit(receiver);
        return assets == type(uint256).max ? type(uint256).max : previewDeposit(assets);
    }

    function maxWithdraw(address owner) public view override returns (uint256) {
        return paused() ? 0 : super.maxWithdraw(owner);
    }

    function maxRedeem(address owner) public view override returns (uint256) {
        return paused() ? 0 : super.maxRedeem(owner);
    }

    function pause() external onlyOwner {
        _pause();
    }

    function unpause() external onlyOwner {
        _unpause();
    }

    function setDepositCap(uint256 cap) external onlyOwner {
        depositCap = cap;
    }

    function setYieldPerSecond(uint256 rate) external onlyOwner {
        accrue();
        yieldPerSecond = rate;
    }

    function _deposit(address caller, address receiver, uint256 assets, uint256 shares) internal override whenNotPaused {
        accrue();
        super._deposit(caller, receiver, assets, shares);
    }

    function _withdraw(address caller, address receiver, address owner, uint256 assets, uint256 shares) internal override whenNotPaused {
        accrue();
        super._withdraw(caller, receiver, owner, assets, shares);
    }
}
